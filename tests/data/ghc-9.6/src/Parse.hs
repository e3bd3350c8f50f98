-- A small expression parser and evaluator: builds a long arithmetic text,
-- parses it into a tree kept alive until the end (a heap that grows and
-- falls), evaluates it. Used for heap profiles (-hc, -hy, -hi with
-- -finfo-table-map, -hT of a non-profiled build) and the time profile.
module Main (main) where

import Data.Char (isDigit, isSpace)
import System.Environment (getArgs)

data Expr = Num !Int | Add Expr Expr | Mul Expr Expr | Neg Expr
  deriving Show

newtype Parser a = Parser { runParser :: String -> Maybe (a, String) }

instance Functor Parser where
  fmap f (Parser p) = Parser $ \s -> fmap (\(a, r) -> (f a, r)) (p s)
instance Applicative Parser where
  pure a = Parser $ \s -> Just (a, s)
  Parser pf <*> Parser pa = Parser $ \s -> case pf s of
    Nothing -> Nothing
    Just (f, r) -> fmap (\(a, r') -> (f a, r')) (pa r)
instance Monad Parser where
  Parser p >>= k = Parser $ \s -> case p s of
    Nothing -> Nothing
    Just (a, r) -> runParser (k a) r

token :: Char -> Parser ()
token c = Parser $ \s -> case dropWhile isSpace s of
  (x : r) | x == c -> Just ((), r)
  _ -> Nothing

orElse :: Parser a -> Parser a -> Parser a
orElse (Parser a) (Parser b) = Parser $ \s -> maybe (b s) Just (a s)

number :: Parser Expr
number = Parser $ \s -> case span isDigit (dropWhile isSpace s) of
  ("", _) -> Nothing
  (ds, r) -> Just (Num (read ds), r)

atom :: Parser Expr
atom = number `orElse` (token '(' *> expr <* token ')') `orElse` (Neg <$> (token '-' *> atom))

chain :: Parser Expr -> Char -> (Expr -> Expr -> Expr) -> Parser Expr
chain p c f = p >>= rest
  where rest a = ((token c *> p) >>= rest . f a) `orElse` pure a

term, expr :: Parser Expr
term = chain atom '*' Mul
expr = chain term '+' Add

eval :: Expr -> Int
eval (Num n) = n
eval (Add a b) = (eval a + eval b) `mod` 1000003
eval (Mul a b) = (eval a * eval b) `mod` 1000003
eval (Neg a) = negate (eval a)

source :: Int -> String
source n = concatMap piece [1 .. n]
  where
    piece i | i == n = show i
            | i `mod` 5 == 0 = "(" ++ show i ++ " * -" ++ show (i `mod` 13) ++ ") + "
            | i `mod` 3 == 0 = show i ++ " * " ++ show (i `mod` 7 + 1) ++ " + "
            | otherwise = show i ++ " + "

size :: Expr -> Int
size (Num _) = 1
size (Add a b) = 1 + size a + size b
size (Mul a b) = 1 + size a + size b
size (Neg a) = 1 + size a

main :: IO ()
main = do
  args <- getArgs
  let n = case args of (a : _) -> read a; _ -> 60000
  case runParser expr (source n) of
    Just (e, rest) -> do
      print (size e)
      print (eval e)
      print (length rest)
    Nothing -> putStrLn "no parse"
