-- A dynamic-programming solver in rounds, its phases marked with
-- traceMarkerIO: each round generates two strings and a set of items,
-- solves their edit distance and a 0/1 knapsack (lazy arrays whose cells
-- refer to earlier cells), and reports.
module Main (main) where

import Control.Exception (evaluate)
import Data.Array
import Debug.Trace (traceMarkerIO)
import System.Environment (getArgs)

lcg :: Int -> Int
lcg s = (s * 1103515245 + 12345) `mod` 2147483648

randoms :: Int -> [Int]
randoms = tail . iterate lcg

text :: Int -> Int -> String
text seed n = [toEnum (97 + r `mod` 6) | r <- take n (randoms seed)]

editDistance :: String -> String -> Int
editDistance a b = table ! (m, n)
  where
    m = length a
    n = length b
    xa = listArray (1, m) a
    xb = listArray (1, n) b
    table = array ((0, 0), (m, n)) [((i, j), cell i j) | i <- [0 .. m], j <- [0 .. n]]
    cell 0 j = j
    cell i 0 = i
    cell i j = minimum [ table ! (i - 1, j) + 1
                       , table ! (i, j - 1) + 1
                       , table ! (i - 1, j - 1) + (if xa ! i == xb ! j then 0 else 1) ]

knapsack :: [(Int, Int)] -> Int -> Int
knapsack items cap = best ! (k, cap)
  where
    k = length items
    its = listArray (1, k) items
    best = array ((0, 0), (k, cap)) [((i, w), cell i w) | i <- [0 .. k], w <- [0 .. cap]]
    cell 0 _ = 0
    cell i w =
      let (wt, v) = its ! i
          skip = best ! (i - 1, w)
      in if wt > w then skip else max skip (v + best ! (i - 1, w - wt))

main :: IO ()
main = do
  args <- getArgs
  let rounds = case args of
        (a : _) -> read a
        [] -> 4
  mapM_ (oneRound . (* 101)) [1 .. rounds]
  traceMarkerIO "done"
  where
    oneRound seed = do
      traceMarkerIO "generate"
      a <- evaluate (forceList (text seed 450))
      b <- evaluate (forceList (text (seed + 1) 420))
      items <- evaluate (forceList [(1 + x `mod` 40, 1 + y `mod` 100) | (x, y) <- take 120 (pairs (randoms (seed + 2)))])
      traceMarkerIO "edit"
      d <- evaluate (editDistance a b)
      traceMarkerIO "knapsack"
      v <- evaluate (knapsack items 500)
      traceMarkerIO "report"
      print (d, v)
    pairs (x : y : r) = (x, y) : pairs r
    pairs _ = []
    forceList xs = foldr seq () xs `seq` xs
