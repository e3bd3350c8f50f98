-- A second module, so that stacks cross module boundaries.
module Helpers (churn, table) where

import Data.List (foldl')

churn :: Int -> Int
churn n = foldl' step 0 [1 .. n]
  where step acc i = (acc * 33 + i) `mod` 1000003

table :: Int -> Int
table n = {-# SCC "table_fill" #-} length [ () | i <- [1 .. n], j <- [1 .. n], (i * j) `mod` 7 == 3 ]
