-- Deep recursion reached from several call sites, plus a stack deeper
-- than 255 cost centres (GHC keeps only the 255 innermost frames).
module Main (main) where

import System.Environment (getArgs)

-- Called from three places with different depths.
walk :: Int -> Int -> Int
walk 0 acc = acc
walk n acc = {-# SCC "walk_step" #-} walk (n - 1) (acc * 31 + n `mod` 7)

deep :: Int -> Int -> Int
deep 0 x = {-# SCC "deep_leaf" #-} sum [x .. x + 3000]
deep n x = {-# SCC "deep_frame" #-} (deep (n - 1) (x + 1) + 1)

fromA, fromB, fromC :: Int -> Int
fromA n = {-# SCC "fromA" #-} walk (n * 40) 1
fromB n = {-# SCC "fromB" #-} walk (n * 20) 2 + fromA (n `div` 4)
fromC n = {-# SCC "fromC" #-} fromB n + walk n 3

main :: IO ()
main = do
  args <- getArgs
  let k = case args of (a:_) -> read a; _ -> 4000
  print (sum [fromA i + fromB i + fromC i | i <- [1 .. k `div` 40]])
  -- 300 nested SCC frames: the sample stacks hit the 255 cap
  print (sum [deep 300 i | i <- [1 .. k `div` 4]])
