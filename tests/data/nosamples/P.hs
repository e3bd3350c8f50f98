-- A short loop for the no-samples logs (tests/cli/no_samples.sh).
import Data.List (foldl')
main :: IO ()
main = print (foldl' (+) 0 [1 .. 3000000 :: Int])
