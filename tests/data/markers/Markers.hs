-- Two phases marked with traceMarker (issue 18's check): each phase
-- spends its time in its own cost centres, so the report of a phase's
-- window has them on top.
import Debug.Trace (traceMarkerIO)
import Data.List (foldl')

-- phase 1: arithmetic on a list
sumSquares :: Int -> Int
sumSquares n = foldl' (+) 0 [ x * x `mod` 7 | x <- [1 .. n] ]
{-# NOINLINE sumSquares #-}

-- phase 2: a naive recursion
fibo :: Int -> Int
fibo n = if n < 2 then n else fibo (n - 1) + fibo (n - 2)
{-# NOINLINE fibo #-}

main :: IO ()
main = do
  -- each phase between its own start/end marks and a pair of "phase"
  -- marks (for --between phase: two windows)
  traceMarkerIO "phase"
  traceMarkerIO "parse start"
  let a = {-# SCC "phaseOne" #-} sumSquares 150000000
  a `seq` traceMarkerIO "parse end"
  traceMarkerIO "phase"
  traceMarkerIO "phase"
  traceMarkerIO "solve start"
  let b = {-# SCC "phaseTwo" #-} fibo 34
  b `seq` traceMarkerIO "solve end"
  traceMarkerIO "phase"
  print (a, b)
