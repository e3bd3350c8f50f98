-- A program in three phases, three rounds (issue 30's check): each round
-- marks the start of each phase with traceMarkerIO "parse", "solve",
-- "print", and each phase spends its time in its own functions, so the
-- phases of `evprof phases` have their own cost centres on top.
import Control.Exception (evaluate)
import Data.List (foldl', sort)
import qualified Data.Map.Strict as M
import Debug.Trace (traceMarkerIO)
import System.IO

-- parse: numbers read back from a text made here
gen :: Int -> Int -> String
gen seed n = unwords [show ((i * 7919 + seed) `mod` 100003) | i <- [1 .. n]]

parseNums :: String -> [Int]
parseNums = map read . words

-- solve: counts in a map, a sort, a naive recursion
solve :: [Int] -> Int
solve xs = M.size counts + sum (take 100 (sort xs)) + fibo 30
  where counts = foldl' (\m x -> M.insertWith (+) (x `mod` 1000) (1 :: Int) m) M.empty xs

fibo :: Int -> Int
fibo n = if n < 2 then n else fibo (n - 1) + fibo (n - 2)

-- print: the results as text
render :: [Int] -> String
render xs = unlines [show x ++ "," ++ show (x * x `mod` 97) | x <- xs]

main :: IO ()
main = do
  h <- openFile "/dev/null" WriteMode
  mapM_ (oneRound h) [1 .. 3]
  hClose h

oneRound :: Handle -> Int -> IO ()
oneRound h r = do
  traceMarkerIO "parse"
  let xs = parseNums (gen r 60000)
  _ <- evaluate (foldl' (+) 0 xs)
  traceMarkerIO "solve"
  v <- evaluate (solve xs)
  traceMarkerIO "print"
  hPutStr h (render (xs ++ reverse xs ++ xs))
  hPutStrLn h (show v)
