-- Ticky test program: a function with many arguments of mixed kinds (its
-- argument-kind string is longer than the 20 columns of the -r table),
-- operator names, and thunks counted with -ticky-dyn-thunk.
module Main (main) where

data P = P !Int !Double

wide :: Int -> Double -> P -> Int -> Double -> P -> Int -> Double -> P
     -> Int -> Double -> P -> Int -> Double -> P -> Int -> Double -> P
     -> Int -> Double -> P -> Int -> Int -> Int
wide a b (P c _) d e (P f _) g h (P i _) j k (P l _) m n (P o _) p q (P r _) s t (P u _) v w =
  a + round b + c + d + round e + f + g + round h + i + j + round k + l + m + round n + o
    + p + round q + r + s + round t + u + v + w
{-# NOINLINE wide #-}

(<+>) :: [Int] -> [Int] -> [Int]
xs <+> ys = zipWith (+) xs ys
{-# NOINLINE (<+>) #-}
infixl 6 <+>

lazySums :: Int -> [Int]
lazySums k = map (\i -> sum [1 .. i]) [1 .. k]
{-# NOINLINE lazySums #-}

main :: IO ()
main = do
  let p = P 1 2.5
  print (sum [wide x 1.0 p x 2.0 p x 3.0 p x 4.0 p x 5.0 p x 6.0 p x 7.0 p x x | x <- [1 .. 300]])
  print (sum ([1 .. 1000] <+> [2 .. 1001] <+> lazySums 1000))
