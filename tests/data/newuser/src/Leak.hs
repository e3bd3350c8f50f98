-- A leaking pipeline (issue 27's new-user programs): every stage's result
-- is kept in a list that is only consumed at the end, so the live heap
-- grows for the whole run; GHC's "total memory in use" is well above the
-- last census.
module Main (main) where

import System.Environment (getArgs)
import qualified Data.Map.Strict as M

stage :: Int -> [Int] -> [Int]
stage k = map (\x -> (x * k + 7) `mod` 1000003)

main :: IO ()
main = do
  args <- getArgs
  let n = case args of { (a:_) -> read a; _ -> 300000 }
      input = [1 .. n]
      s1 = stage 3 input
      s2 = stage 5 s1
      s3 = stage 11 s2
      kept = M.fromList (zip s3 s1)       -- holds the whole of s1 and s3
  print (sum s2)
  print (M.size kept, M.foldl' (+) 0 kept, length s1)
