-- Heap profile test program: a few structures built under different cost
-- centres and kept alive until the end, so every census has several bands.
{-# LANGUAGE BangPatterns #-}
module Main (main) where

import qualified Data.Map.Strict as M
import Data.IORef
import Data.List (foldl')
import System.Environment (getArgs)
import Control.Monad (forM_, when)

data Item = Item !Int String deriving Show

table :: Int -> M.Map Int Int
table k = foldl' (\m i -> M.insertWith (+) (i `mod` 997) i m) M.empty [1 .. k]

items :: Int -> [Item]
items k = [Item i (show i) | i <- [1 .. k]]

squares :: Int -> [Integer]
squares k = [fromIntegral i * fromIntegral i | i <- [1 .. k]]

main :: IO ()
main = do
  args <- getArgs
  let rounds = case args of (a : _) -> read a; _ -> 40
  maps <- newIORef []
  lists <- newIORef []
  nums <- newIORef []
  forM_ [1 .. rounds] $ \r -> do
    let !m = table (2000 * r)
    modifyIORef' maps (m :)
    let is = items (300 * r)
    when (length is > 0) $ modifyIORef' lists (is :)
    let ss = squares (200 * r)
    when (sum ss > 0) $ modifyIORef' nums (ss :)
  ms <- readIORef maps
  ls <- readIORef lists
  ns <- readIORef nums
  print (sum (map M.size ms), sum (map length ls), sum (map sum ns) `mod` 1000)
