-- A small program for evprof's live test (tests/cli/live_top_ghc.sh):
-- ROUNDS rounds of work in three cost centres that take turns.
import System.Environment (getArgs)
import Data.List (foldl')

nfib :: Int -> Integer
nfib n = if n < 2 then 1 else nfib (n - 1) + nfib (n - 2) + 1

build :: Int -> Int
build n = foldl' (+) 0 [ (i * 7919) `mod` 1000 | i <- [1 .. n] ]

sorty :: Int -> Int
sorty k = length (filter even (map (* k) [1 .. 50000]))

main :: IO ()
main = do
  [a] <- map read <$> getArgs
  let go :: Int -> Integer -> Integer
      go k acc
        | k == 0 = acc
        | otherwise =
            let x = nfib (18 + k `mod` 4) + toInteger (build (20000 + k)) + toInteger (sorty k)
            in x `seq` go (k - 1) (acc + x)
  print (go a 0)
