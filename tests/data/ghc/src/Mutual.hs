-- Mutual recursion (compiled with -fprof-auto: every binding is a cost
-- centre), so stacks alternate isEven/isOdd.
module Main (main) where

isEven', isOdd' :: Int -> Bool
isEven' 0 = True
isEven' n = isOdd' (n - 1)
isOdd' 0 = False
isOdd' n = isEven' (n - 1)

collatz :: Int -> Int
collatz 1 = 0
collatz n = 1 + collatz (if isEven' (n `mod` 64) && even n then n `div` 2 else 3 * n + 1)

main :: IO ()
main = print (sum (map collatz [1 .. 2500]))
