-- A lexer and a recursive-descent parser for a small language of
-- assignments and arithmetic (let x = expr; ...), over a generated text;
-- then an evaluator with a Data.Map environment. The lexer turns the text
-- into tokens, the parser the tokens into statements.
module Main (main) where

import Data.Char (isAlpha, isAlphaNum, isDigit, isSpace)
import Data.List (foldl')
import qualified Data.Map.Strict as M
import System.Environment (getArgs)

data Tok = TLet | TIdent String | TNum Int | TOp Char | TLParen | TRParen | TEq | TSemi
  deriving (Eq, Show)

lexer :: String -> [Tok]
lexer [] = []
lexer s@(c : cs)
  | isSpace c = lexer cs
  | isDigit c = lexNumber s
  | isAlpha c = lexIdent s
  | c == '(' = TLParen : lexer cs
  | c == ')' = TRParen : lexer cs
  | c == '=' = TEq : lexer cs
  | c == ';' = TSemi : lexer cs
  | c `elem` "+-*/%" = TOp c : lexer cs
  | otherwise = error ("bad character " ++ [c])

lexNumber :: String -> [Tok]
lexNumber s = let (d, rest) = span isDigit s in TNum (foldl' (\a x -> a * 10 + fromEnum x - 48) 0 d) : lexer rest

lexIdent :: String -> [Tok]
lexIdent s = let (w, rest) = span isAlphaNum s
             in (if w == "let" then TLet else TIdent w) : lexer rest

data Expr = Num Int | Var String | Bin Char Expr Expr
data Stmt = Let String Expr

parseStmts :: [Tok] -> [Stmt]
parseStmts [] = []
parseStmts (TLet : TIdent x : TEq : ts) =
  let (e, rest) = parseExpr ts
  in case rest of
       TSemi : more -> Let x e : parseStmts more
       _ -> error "expected ;"
parseStmts ts = error ("bad statement at " ++ show (take 3 ts))

parseExpr :: [Tok] -> (Expr, [Tok])
parseExpr ts = let (t, rest) = parseTerm ts in exprTail t rest

exprTail :: Expr -> [Tok] -> (Expr, [Tok])
exprTail acc (TOp o : ts) | o `elem` "+-" = let (t, rest) = parseTerm ts in exprTail (Bin o acc t) rest
exprTail acc ts = (acc, ts)

parseTerm :: [Tok] -> (Expr, [Tok])
parseTerm ts = let (f, rest) = parseFactor ts in termTail f rest

termTail :: Expr -> [Tok] -> (Expr, [Tok])
termTail acc (TOp o : ts) | o `elem` "*/%" = let (f, rest) = parseFactor ts in termTail (Bin o acc f) rest
termTail acc ts = (acc, ts)

parseFactor :: [Tok] -> (Expr, [Tok])
parseFactor (TNum n : ts) = (Num n, ts)
parseFactor (TIdent x : ts) = (Var x, ts)
parseFactor (TLParen : ts) = case parseExpr ts of
  (e, TRParen : rest) -> (e, rest)
  _ -> error "expected )"
parseFactor ts = error ("bad factor at " ++ show (take 3 ts))

eval :: M.Map String Int -> Expr -> Int
eval _ (Num n) = n
eval env (Var x) = M.findWithDefault 0 x env
eval env (Bin o a b) =
  let x = eval env a
      y = eval env b
  in case o of
       '+' -> (x + y) `mod` 1000003
       '-' -> (x - y) `mod` 1000003
       '*' -> (x * y) `mod` 1000003
       '/' -> if y == 0 then x else x `div` y
       _ -> if y == 0 then x else x `mod` y

run :: [Stmt] -> M.Map String Int
run = foldl' (\env (Let x e) -> M.insert x (eval env e) env) M.empty

-- the text: n statements over 50 variables, each a nested expression
source :: Int -> String
source n = concatMap stmt [1 .. n]
  where
    var i = 'v' : show (i `mod` 50)
    stmt i = "let " ++ var i ++ " = " ++ expr i (3 :: Int) ++ ";\n"
    expr i 0 = if even i then show (i * 7 `mod` 1000) else var (i * 3)
    expr i d = "(" ++ expr (i + 1) (d - 1) ++ " " ++ [ops !! (i `mod` 5)] ++ " "
               ++ expr (i * 5 + d) (d - 1) ++ ")"
    ops = "+-*/%"

main :: IO ()
main = do
  args <- getArgs
  let n = case args of
        (a : _) -> read a
        [] -> 6000
      env = run (parseStmts (lexer (source n)))
  print (M.size env, M.foldl' (\a v -> (a + v) `mod` 1000003) 0 env)
