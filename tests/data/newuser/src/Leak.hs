-- A leaking pipeline (issue 27's new-user programs): the mean of a
-- generated list, computed with sum and then length, so the whole list
-- stays live until length is done, three times over. GHC's "total memory
-- in use" of +RTS -s is the peak of the megablocks the heap held, reached
-- inside a major collection, above the heap size logged after it.
module Main (main) where

import System.Environment (getArgs)

mean :: [Double] -> Double
mean xs = sum xs / fromIntegral (length xs)

main :: IO ()
main = do
  args <- getArgs
  let n = case args of { (a:_) -> read a; _ -> 2000000 }
  mapM_ (\k -> print (mean (map fromIntegral [k .. n + k]))) [1 .. 3 :: Int]
