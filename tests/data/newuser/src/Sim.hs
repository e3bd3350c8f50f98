-- A Data.Map simulation in phases marked with traceMarkerIO (issue 27's
-- new-user programs): accounts move money for a number of rounds, then a
-- report phase folds the map.
module Main (main) where

import qualified Data.Map.Strict as M
import Debug.Trace (traceMarkerIO)
import System.Environment (getArgs)
import Data.List (foldl')

step :: Int -> M.Map Int Int -> M.Map Int Int
step r m = foldl' move m [1 .. 2000]
  where
    move acc i =
      let from = (i * 7919 + r) `mod` 5000
          to = (i * 104729 + r * 31) `mod` 5000
          amt = (i + r) `mod` 17
      in M.insertWith (+) to amt (M.adjust (subtract amt) from acc)

simulate :: Int -> M.Map Int Int -> M.Map Int Int
simulate rounds m0 = foldl' (flip step) m0 [1 .. rounds]

summarise :: M.Map Int Int -> (Int, Int, Int)
summarise m = (M.foldl' (+) 0 m, maximum (M.elems m), minimum (M.elems m))

main :: IO ()
main = do
  args <- getArgs
  let rounds = case args of { (a:_) -> read a; _ -> 300 }
  traceMarkerIO "setup"
  let m0 = M.fromList [ (k, 1000) | k <- [0 .. 4999] ]
  print (M.size m0)
  traceMarkerIO "simulate"
  let m1 = simulate rounds m0
  print (M.foldl' (+) 0 m1)
  traceMarkerIO "report"
  print (summarise m1)
  traceMarkerIO "done"
