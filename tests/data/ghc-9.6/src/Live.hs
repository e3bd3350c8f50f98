-- A program to watch live (tests/cli/ghc96_live.sh): ROUNDS rounds of
-- Data.Map work of about the same size; after each it marks the log
-- (traceMarkerIO "round N") and prints "round N T" with T the
-- CLOCK_MONOTONIC nanoseconds at that moment (GHC.Clock), the clock the
-- test reads evprof's frames with: the delay from the work to the screen.
module Main (main) where

import Control.Exception (evaluate)
import Control.Monad (forM_)
import qualified Data.Map.Strict as M
import Data.List (foldl')
import Debug.Trace (traceMarkerIO)
import GHC.Clock (getMonotonicTimeNSec)
import System.Environment (getArgs)
import System.IO

step :: Int -> M.Map Int Int -> Int -> M.Map Int Int
step r m i = M.insertWith (+) ((i * 7919 + r) `mod` 5003) i m

work :: Int -> Int -> Int
work r n = M.foldl' (+) 0 (foldl' (step r) M.empty [1 .. n])

main :: IO ()
main = do
  args <- getArgs
  let (rounds, n) = case args of
        [a, b] -> (read a, read b)
        _ -> (8, 300000)
  hSetBuffering stdout LineBuffering
  forM_ [1 .. rounds] $ \r -> do
    s <- evaluate (work r n)
    traceMarkerIO ("round " ++ show r)
    t <- getMonotonicTimeNSec
    putStrLn ("round " ++ show r ++ " " ++ show t ++ " " ++ show s)
