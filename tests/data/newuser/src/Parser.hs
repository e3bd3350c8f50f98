-- A small arithmetic-expression parser and evaluator (issue 27's new-user
-- programs): parses and evaluates generated expressions many times.
module Main (main) where

import Data.Char (isDigit, isSpace)
import System.Environment (getArgs)

data Expr = Num Int | Add Expr Expr | Sub Expr Expr | Mul Expr Expr
  deriving Show

tokens :: String -> [String]
tokens [] = []
tokens (c:cs)
  | isSpace c = tokens cs
  | isDigit c = let (d, rest) = span isDigit (c:cs) in d : tokens rest
  | otherwise = [c] : tokens cs

expr :: [String] -> (Expr, [String])
expr ts = let (t, rest) = term ts in exprRest t rest

exprRest :: Expr -> [String] -> (Expr, [String])
exprRest acc ("+":ts) = let (t, rest) = term ts in exprRest (Add acc t) rest
exprRest acc ("-":ts) = let (t, rest) = term ts in exprRest (Sub acc t) rest
exprRest acc ts = (acc, ts)

term :: [String] -> (Expr, [String])
term ts = let (f, rest) = factor ts in termRest f rest

termRest :: Expr -> [String] -> (Expr, [String])
termRest acc ("*":ts) = let (f, rest) = factor ts in termRest (Mul acc f) rest
termRest acc ts = (acc, ts)

factor :: [String] -> (Expr, [String])
factor ("(":ts) = case expr ts of
  (e, ")":rest) -> (e, rest)
  (e, rest) -> (e, rest)
factor (t:ts) = (Num (read t), ts)
factor [] = (Num 0, [])

eval :: Expr -> Int
eval (Num n) = n
eval (Add a b) = eval a + eval b
eval (Sub a b) = eval a - eval b
eval (Mul a b) = (eval a * eval b) `mod` 1000003

gen :: Int -> Int -> String
gen 0 s = show (s `mod` 97)
gen d s = "(" ++ gen (d - 1) (s * 7 + 1) ++ op ++ gen (d - 1) (s * 13 + 5) ++ ")"
  where op = case s `mod` 3 of { 0 -> " + "; 1 -> " - "; _ -> " * " }

main :: IO ()
main = do
  args <- getArgs
  let n = case args of { (a:_) -> read a; _ -> 400 }
      results = [ eval (fst (expr (tokens (gen 10 i)))) | i <- [1 .. n] ]
  print (sum results `mod` 1000003)
