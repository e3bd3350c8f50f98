-- A naive and a fast version of one function, chosen by the first
-- argument: `groups` gathers the words that are anagrams of each other.
-- naive: for each word not yet placed, scan all words comparing sorted
-- letters (quadratic); fast: one Data.Map keyed by the sorted letters.
module Main (main) where

import Data.List (sort, foldl')
import qualified Data.Map.Strict as M
import System.Environment (getArgs)

lcg :: Int -> Int
lcg s = (s * 1103515245 + 12345) `mod` 2147483648

wordsOf :: Int -> [String]
wordsOf n = take n (go 7)
  where
    go s = let s1 = lcg s
               w = [toEnum (97 + (s1 `div` (7 ^ k)) `mod` 7) | k <- [0 .. 4 :: Int]]
           in w : go s1

groupsNaive :: [String] -> [[String]]
groupsNaive [] = []
groupsNaive (w : ws) =
  let key = sort w
      (same, rest) = partitionBy key ws
  in (w : same) : groupsNaive rest
  where
    partitionBy k = foldr (\x (a, b) -> if sort x == k then (x : a, b) else (a, x : b)) ([], [])

groupsFast :: [String] -> [[String]]
groupsFast ws = M.elems (foldl' (\m w -> M.insertWith (flip (++)) (sort w) [w] m) M.empty ws)

groups :: String -> [String] -> [[String]]
groups "naive" = groupsNaive
groups _ = groupsFast

main :: IO ()
main = do
  args <- getArgs
  let (mode, n) = case args of
        (m : a : _) -> (m, read a)
        [m] -> (m, 4000)
        [] -> ("fast", 4000)
      gs = groups mode (wordsOf n)
  print (length gs, maximum (map length gs), sum (map length gs))
