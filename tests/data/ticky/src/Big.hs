{-# LANGUAGE BangPatterns #-}
-- Ticky test program: one counter whose allocation passes 10^10 bytes, so
-- its Alloc column (%11d) has 11 digits and runs into the Entries column.
module Main (main) where

mk :: Int -> Int -> [Int]
mk a b = let !s = (a + b) `rem` 1000003 in [s]
{-# NOINLINE mk #-}

loop :: Int -> [Int] -> Int
loop 0 (x : _) = x
loop n (x : _) = loop (n - 1) (mk x n)
loop _ [] = 0

main :: IO ()
main = print (loop 700000000 [0])
