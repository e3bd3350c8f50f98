-- A threaded program (issue 27's new-user programs): forkIO workers that
-- each allocate and sum, joined through MVars; run with +RTS -N2.
module Main (main) where

import Control.Concurrent
import Control.Monad
import System.Environment (getArgs)
import Data.List (foldl')

-- allocates: every number is shown as a string, then the digits summed
work :: Int -> Int -> Int
work seed n = foldl' (\a c -> (a * 7 + fromEnum c + seed) `mod` 1000003) 0
                     (concatMap show [seed * 1000 .. seed * 1000 + n])

main :: IO ()
main = do
  args <- getArgs
  let n = case args of { (a:_) -> read a; _ -> 300000 }
  vars <- forM [1 .. 4 :: Int] $ \w -> do
    v <- newEmptyMVar
    _ <- forkIO $ putMVar v $! work w (n + w)
    return v
  rs <- mapM takeMVar vars
  print (sum rs)
