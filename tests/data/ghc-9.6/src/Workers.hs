-- Two capabilities at work (-threaded -N2): a forkIO worker folding a Map,
-- the main thread sorting; then a par-free join. For the threaded time
-- profile, -s of a threaded run and the live view.
module Main (main) where

import Control.Concurrent
import Control.Exception (evaluate)
import qualified Data.Map.Strict as M
import Data.List (sort, foldl')
import System.Environment (getArgs)
import System.IO

histogram :: Int -> M.Map Int Int
histogram n = foldl' (\m i -> M.insertWith (+) ((i * 7919) `mod` 1009) 1 m) M.empty [1 .. n]

sorter :: Int -> Int
sorter n = sum (take 100 (sort [ (i * 104729) `mod` 99991 | i <- [1 .. n] ]))

main :: IO ()
main = do
  args <- getArgs
  let rounds = case args of (a : _) -> read a; _ -> 4
  hSetBuffering stdout LineBuffering
  done <- newEmptyMVar
  _ <- forkIO $ do
    m <- evaluate (histogram (600000 * rounds))
    putMVar done (M.size m)
  mapM_ (\r -> do s <- evaluate (sorter 150000); putStrLn ("round " ++ show r ++ " " ++ show s)) [1 .. rounds]
  k <- takeMVar done
  print k
