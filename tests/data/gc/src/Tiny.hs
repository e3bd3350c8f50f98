-- Many short-lived lists with a small live set: with +RTS -A64k the
-- nursery fills every 64 KB, so the run makes thousands of collections.
-- Each list is used twice, so it is built in the heap (no fusion).
import Data.List (foldl')

main :: IO ()
main = do
  let step acc n = let xs = [n .. n + 200] in acc + sum xs + length xs
  print (foldl' step (0 :: Int) [1 .. 18000])
