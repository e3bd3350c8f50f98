-- par/pseq on several capabilities (-threaded +RTS -N2): a parallel
-- Fibonacci whose top levels spark both halves, and a chunked sum of
-- Collatz lengths whose chunks are sparked with par and joined with pseq.
module Main (main) where

import GHC.Conc (par, pseq)
import System.Environment (getArgs)

sfib :: Int -> Integer
sfib n = if n < 2 then toInteger n else sfib (n - 1) + sfib (n - 2)

pfib :: Int -> Integer
pfib n
  | n < 22 = sfib n
  | otherwise = let a = pfib (n - 1)
                    b = pfib (n - 2)
                in a `par` (b `pseq` (a + b))

collatzLen :: Int -> Int
collatzLen = go 1
  where
    go acc 1 = acc
    go acc m = go (acc + 1) (if even m then m `div` 2 else 3 * m + 1)

chunkSum :: [Int] -> Int
chunkSum = foldr (\x s -> let v = collatzLen x in v `seq` v + s) 0

parChunks :: [[Int]] -> Int
parChunks [] = 0
parChunks (c : cs) = let here = chunkSum c
                         rest = parChunks cs
                     in here `par` (rest `pseq` (here + rest))

chunks :: Int -> [a] -> [[a]]
chunks _ [] = []
chunks k xs = let (a, b) = splitAt k xs in a : chunks k b

main :: IO ()
main = do
  args <- getArgs
  let n = case args of
        (a : _) -> read a
        [] -> 27
  print (pfib n)
  print (parChunks (chunks 4000 [1 .. 60000]))
