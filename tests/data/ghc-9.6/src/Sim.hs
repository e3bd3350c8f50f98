-- A warehouse simulation over Data.Map: orders arrive, stock moves, a
-- report is built. Deterministic (a linear congruential generator), two
-- phases marked with traceMarkerIO. Used for the time profile (-p, -pj,
-- -fprof-auto and -fprof-late), heap profiles (-hc, -hy, -hi) and -s.
module Main (main) where

import qualified Data.Map.Strict as M
import Data.List (foldl', sortBy)
import Data.Ord (comparing, Down (..))
import Debug.Trace (traceMarkerIO)
import System.Environment (getArgs)

data Order = Order { item :: !Int, qty :: !Int, customer :: !Int }

type Stock = M.Map Int Int

lcg :: Int -> Int
lcg s = (s * 1103515245 + 12345) `mod` 2147483648

orders :: Int -> Int -> [Order]
orders seed n = go seed n
  where
    go _ 0 = []
    go s k = let s1 = lcg s; s2 = lcg s1; s3 = lcg s2
             in Order (s1 `mod` 500) (1 + s2 `mod` 9) (s3 `mod` 200) : go s3 (k - 1)

restock :: Stock -> Int -> Stock
restock st i = M.insertWith (+) (i `mod` 500) 40 st

fill :: (Stock, M.Map Int [Int]) -> Order -> (Stock, M.Map Int [Int])
fill (st, back) o =
  case M.lookup (item o) st of
    Just have | have >= qty o -> (M.insert (item o) (have - qty o) st, back)
    _ -> (st, M.insertWith (++) (customer o) [item o] back)

simulate :: Int -> (Stock, M.Map Int [Int])
simulate n = foldl' step (M.empty, M.empty) (zip [0 ..] (orders 42 n))
  where
    step acc (i, o)
      | i `mod` 7 == 0 = fill (restock (fst acc) i, snd acc) o
      | otherwise = fill acc o

report :: (Stock, M.Map Int [Int]) -> [(Int, Int)]
report (st, back) = take 10 (sortBy (comparing (Down . snd)) scores)
  where
    scores = [ (c, length is + M.findWithDefault 0 c st) | (c, is) <- M.toList back ]

main :: IO ()
main = do
  args <- getArgs
  let n = case args of (a : _) -> read a; _ -> 300000
  traceMarkerIO "simulate start"
  let r = simulate n
  print (M.size (fst r), M.size (snd r))
  traceMarkerIO "simulate end"
  traceMarkerIO "report start"
  mapM_ print (report r)
  traceMarkerIO "report end"
