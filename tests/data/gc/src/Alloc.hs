-- A sequential program with a growing, then shrinking, live set: a map is
-- built, queried and thrown away while lists are allocated and dropped.
import qualified Data.Map.Strict as M
import Data.List (foldl')

main :: IO ()
main = do
  let m = foldl' (\acc i -> M.insert (i * 7919 `mod` 100003) i acc) M.empty [1 .. 60000 :: Int]
  print (M.size m, M.foldl' (+) 0 m)
  let m2 = M.filter even m
  print (M.size m2)
  print (sum [ x * y `mod` 13 | x <- [1 .. 600 :: Int], y <- [1 .. 300] ])
  print (length (show (product [1 .. 3000 :: Integer])))
