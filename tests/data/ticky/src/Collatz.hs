-- Ticky test program: a few top-level functions with known call counts.
module Main (main) where

import Data.List (foldl')

collatz :: Int -> Int
collatz n = go n 0
  where
    go 1 acc = acc
    go m acc
      | even m = go (m `div` 2) (acc + 1)
      | otherwise = go (3 * m + 1) (acc + 1)
{-# NOINLINE collatz #-}

longest :: Int -> (Int, Int)
longest k = foldl' step (1, 0) [1 .. k]
  where
    step (best, len) i =
      let l = collatz i
       in if l > len then (i, l) else (best, len)

squares :: Int -> [Int]
squares k = [i * i | i <- [1 .. k]]
{-# NOINLINE squares #-}

main :: IO ()
main = do
  print (longest 20000)
  print (sum (squares 5000))
