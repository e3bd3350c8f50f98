-- A Data.Map leak: events are grouped by key into a lazy Map of lists
-- that is kept to the end, and counted by a lazy insertWith (+) that
-- builds a chain of thunks per key until the counts are printed.
module Main (main) where

import Data.List (foldl')
import qualified Data.Map as M
import System.Environment (getArgs)

data Event = Event { key :: !Int, value :: !Int }

events :: Int -> [Event]
events n = [Event (i * 7919 `mod` 3001) (i * i `mod` 1009) | i <- [1 .. n]]

group :: [Event] -> M.Map Int [Int]
group = foldl' (\m e -> M.insertWith (++) (key e) [value e] m) M.empty

counts :: [Event] -> M.Map Int Int
counts = foldl' (\m e -> M.insertWith (+) (key e `mod` 500) 1 m) M.empty

summary :: M.Map Int [Int] -> Int
summary = M.foldl' (\a vs -> (a + sum vs) `mod` 1000003) 0

main :: IO ()
main = do
  args <- getArgs
  let n = case args of
        (a : _) -> read a
        [] -> 300000
      es = events n
      g = group es
      c = counts es
  print (M.size g, summary g)
  print (M.foldl' (+) 0 c, M.size c)
