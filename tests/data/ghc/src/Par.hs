-- Two capabilities doing different work at once (-threaded -N2).
module Main (main) where

import Control.Concurrent
import Control.Exception (evaluate)

spin :: Int -> Int
spin n = {-# SCC "spin" #-} foldr (\i a -> (a * 7 + i) `mod` 65521) 0 [1 .. n]

crunch :: Int -> Int
crunch n = {-# SCC "crunch" #-} length (filter even (map (* 3) [1 .. n]))

main :: IO ()
main = do
  done <- newEmptyMVar
  _ <- forkOn 1 (evaluate (spin 1500000) >>= putMVar done)
  c <- evaluate (crunch 2500000)
  s <- takeMVar done
  print (s + c)
