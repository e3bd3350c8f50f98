{-# LANGUAGE OverloadedStrings #-}
-- Manual SCCs whose names need escaping in JSON and care in text:
-- quotes, backslashes, a tab, a semicolon, non-ASCII letters.
module Main (main) where

import Helpers (churn, table)

main :: IO ()
main = do
  let a = {-# SCC "quote\"d" #-} churn 30000000
      b = {-# SCC "back\\slash" #-} churn 20000000
      c = {-# SCC "tab\there" #-} churn 15000000
      d = {-# SCC "semi;colon" #-} churn 10000000
      e = {-# SCC "λ-café" #-} churn 25000000
      f = {-# SCC "trailing_42" #-} churn 8000000
  print (a + b + c + d + e + f + table 200)
