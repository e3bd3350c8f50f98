-- Four mutually recursive functions (compiled with -fprof-auto: each is a
-- cost centre): a state machine stepping a counter down, each state doing
-- a little arithmetic and choosing the next state. Nearly all of the run
-- is this small loop, so the current cost-centre stack changes between
-- the four on almost every step.
module Main (main) where

import Data.Bits (xor)
import Data.List (foldl')
import System.Environment (getArgs)

stA, stB, stC, stD :: Int -> Int -> Int
stA acc n
  | n <= 0 = acc
  | even n = stB ((acc + n * 7) `mod` 1000003) (n - 1)
  | otherwise = stC ((acc * 3 + 1) `mod` 1000003) (n - 1)
stB acc n
  | n <= 0 = acc
  | n `mod` 3 == 0 = stD (acc `xor` n) (n - 2)
  | otherwise = stA ((acc + n) `mod` 1000003) (n - 1)
stC acc n
  | n <= 0 = acc
  | n `mod` 5 == 0 = stA ((acc * 7) `mod` 1000003) (n - 1)
  | otherwise = stD ((acc + n * n) `mod` 1000003) (n - 1)
stD acc n
  | n <= 0 = acc
  | n `mod` 7 == 0 = stB ((acc + 11) `mod` 1000003) (n - 1)
  | otherwise = stC (acc `xor` (n * 13)) (n - 3)

run :: Int -> Int
run k = foldl' (\s i -> (s + stA i (3000 + i `mod` 997)) `mod` 1000003) 0 [1 .. k]

main :: IO ()
main = do
  args <- getArgs
  let k = case args of
        (a : _) -> read a
        [] -> 6000
  print (run k)
