-- Two workers (-threaded -N2), each keeping a large IntMap alive and
-- rewriting it round after round: a live set of tens of megabytes that the
-- old generation must hold, so that +RTS --nonmoving-gc runs several
-- concurrent marks (and the copying GC several major collections).
-- For evprof gc: the non-moving collector's lines and TASKS.
{-# LANGUAGE BangPatterns #-}
module Main (main) where

import Control.Concurrent
import Control.Exception (evaluate)
import Control.Monad (forM, forM_)
import qualified Data.IntMap.Strict as M
import Data.List (foldl')
import System.Environment (getArgs)

size :: Int
size = 100000

rewrite :: Int -> M.IntMap [Int] -> M.IntMap [Int]
rewrite r m = foldl' put m [1 .. 30000]
  where
    put acc k = let !key = (k * 7919 + r * 104729) `mod` size
                    !a = k + r
                in M.insert key [k, r, a] acc

worker :: Int -> Int -> IO Int
worker seed rounds = go 1 (M.fromList [ (i, [i, seed]) | i <- [0 .. size - 1] ])
  where
    go r !m
      | r > rounds = evaluate (M.foldl' (\s xs -> s + sum xs) 0 m)
      | otherwise = do
          m' <- evaluate (rewrite (r * 2 + seed) m)
          go (r + 1) m'

main :: IO ()
main = do
  args <- getArgs
  let rounds = case args of (a : _) -> read a; _ -> 16
  vars <- forM [1, 2] $ \seed -> do
    v <- newEmptyMVar
    _ <- forkIO (worker seed rounds >>= putMVar v)
    return v
  forM_ vars $ \v -> takeMVar v >>= print
