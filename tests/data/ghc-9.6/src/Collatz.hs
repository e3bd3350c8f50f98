{-# LANGUAGE BangPatterns #-}
-- Deterministic work for ticky (-ticky): the same counts in every run, so a
-- +RTS -lT run's eventlog can be checked against another run's +RTS -r.
--
-- GHC 9.6 and 9.10 post the ticky counters to the eventlog only at the first
-- collection after each tick of the -i timer (rts/sm/GC.c,
-- performTickySample), the one at exit only when a tick came since the
-- last sample: counts made after the last sample are not in the log
-- (collatz-short). So the -lT run (argument "last-sample") asks for a
-- last sample before it ends, the way the timer does: it sets the RTS's
-- flag and collects. Not in the -r run: a sample resets the counters GHC's -r
-- table prints.
module Main (main) where

import Data.List (foldl')
import Foreign.Ptr (Ptr)
import Foreign.Storable (poke)
import System.Environment (getArgs)
import System.Mem (performMajorGC)

foreign import ccall "&performTickySample" performTickySample :: Ptr Bool

steps :: Int -> Int
steps = go 0
  where
    go !k 1 = k
    go !k n = go (k + 1) (if even n then n `div` 2 else 3 * n + 1)

longest :: Int -> (Int, Int)
longest m = foldl' pick (1, 0) [1 .. m]
  where
    pick (bn, bs) n = let s = steps n in if s > bs then (n, s) else (bn, bs)

digits :: Int -> [Int]
digits 0 = []
digits n = n `mod` 10 : digits (n `div` 10)

main :: IO ()
main = do
  print (longest 30000)
  print (sum (concatMap digits [1 .. 20000 :: Int]))
  args <- getArgs
  if args == ["last-sample"]
    then poke performTickySample True >> performMajorGC
    else return ()
