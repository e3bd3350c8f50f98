-- Heap profile test program for -hc band names. The cost-centre labels make
-- bands of 24, 25, 26 and more bytes (GHC cuts a band longer than -L, 25 by
-- default, to L-4 bytes and "..."), nested stacks joined by '/', a label of
-- multi-byte UTF-8 that the cut splits, and per-CAF cost centres (built with
-- -fprof-cafs, whose labels are "CAF:name").
{-# LANGUAGE BangPatterns #-}
module Main (main) where

import Data.IORef
import System.Environment (getArgs)
import Control.Monad (forM_)

bigTable :: [Int]
bigTable = [1 .. 3000]
{-# NOINLINE bigTable #-}

main :: IO ()
main = do
  args <- getArgs
  let rounds = case args of (a : _) | all (`elem` "0123456789") a -> read a; _ -> 30
  print (length bigTable)
  keep <- newIORef []
  forM_ [1 .. rounds] $ \r -> do
    let !a = {-# SCC "twenty_four_bytes_label_" #-} held (replicate 500 r)
    let !b = {-# SCC "twenty_five_bytes_label__" #-} held (replicate 500 r)
    let !c = {-# SCC "twenty_six_bytes_label____" #-} held (replicate 500 r)
    let !d = {-# SCC "outer_22_bytes_label__" #-} ({-# SCC "in" #-} held (replicate 500 r))
    let !e = {-# SCC "outer_frame_of_the_stack" #-} ({-# SCC "inner" #-} held (replicate 500 r))
    let !f = {-# SCC "a_label_much_longer_than_the_default_limit" #-} held (replicate 500 r)
    let !g = {-# SCC "λλλλλλλλλλλ-utf8" #-} held (replicate 500 r)
    modifyIORef' keep ([a, b, c, d, e, f, g] ++)
    print (busy r `mod` 10)
  xs <- readIORef keep
  print (sum (map fst xs) + sum bigTable)
  where
    held :: [Int] -> (Int, [Int])
    held l = let n = length l in n `seq` (n, l)
    busy :: Int -> Int
    busy r = sum [ (i * r) `mod` 7 | i <- [1 .. 40000] ]
