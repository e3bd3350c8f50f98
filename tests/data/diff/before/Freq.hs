-- The five most frequent words of a generated text (evprof's diff example:
-- the run before the optimisation; ../after/Freq.hs is the run after).
module Main (main) where

import Data.List (nub, sortBy)
import Data.Ord (Down (..), comparing)
import qualified Data.Map.Strict as M
import System.Environment (getArgs)

-- | n pseudo-random three-letter words (a linear congruential generator).
corpus :: Int -> [String]
corpus n = take n (map word (iterate step 42))
  where
    step x = (x * 1103515245 + 12345) `mod` 2147483648
    word x = [ "abcdefgh" !! ((x `div` d) `mod` 8) | d <- [65536, 524288, 4194304] ]

-- | The k most frequent.
top :: Int -> [(String, Int)] -> [(String, Int)]
top k = take k . sortBy (comparing (\(w, c) -> (Down c, w)))

main :: IO ()
main = do
  [n] <- map read <$> getArgs
  mapM_ print (top 5 (freqs (corpus n)))

-- | How often each word occurs.
freqs :: [String] -> [(String, Int)]
freqs ws = [ (w, length (filter (== w) ws)) | w <- nub ws ]
