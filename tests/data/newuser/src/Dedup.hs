-- A naive and a fast version of one function (issue 27's new-user
-- programs): `dedup naive N` removes duplicates with nub, `dedup fast N`
-- with a Set and a helper of its own. Profiled, the fast run is a large
-- improvement that adds a new cost centre (fastDedup.go).
module Main (main) where

import qualified Data.Set as S
import Data.List (foldl', nub)
import System.Environment (getArgs)

naiveDedup :: [Int] -> [Int]
naiveDedup = nub

fastDedup :: [Int] -> [Int]
fastDedup = go S.empty
  where
    go _ [] = []
    go seen (x:xs)
      | S.member x seen = go seen xs
      | otherwise = x : go (S.insert x seen) xs

checksum :: [Int] -> Int
checksum = foldl' (\a x -> (a * 31 + x) `mod` 1000003) 7

input :: Int -> [Int]
input n = [ (i * 7919) `mod` (n `div` 2) | i <- [1 .. n] ]

main :: IO ()
main = do
  args <- getArgs
  let (mode, n) = case args of { [m, k] -> (m, read k); _ -> ("naive", 6000) }
      xs = input n
  print (checksum (if mode == "fast" then fastDedup xs else naiveDedup xs))
