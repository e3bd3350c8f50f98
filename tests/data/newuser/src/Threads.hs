-- A threaded program (issue 27's new-user programs): forkIO workers that
-- each allocate and sum, joined through MVars; run with +RTS -N2.
module Main (main) where

import Control.Concurrent
import Control.Monad
import System.Environment (getArgs)
import Data.List (foldl')

work :: Int -> Int -> Int
work seed n = foldl' (\a x -> (a + x * x + seed) `mod` 1000003) 0 (map (* 3) [1 .. n])

main :: IO ()
main = do
  args <- getArgs
  let n = case args of { (a:_) -> read a; _ -> 2000000 }
  vars <- forM [1 .. 4 :: Int] $ \w -> do
    v <- newEmptyMVar
    _ <- forkIO $ putMVar v $! work w (n + w)
    return v
  rs <- mapM takeMVar vars
  print (sum rs)
