-- An STM bank on several capabilities (-threaded +RTS -N2): 64 accounts
-- in TVars, eight forkIO tellers each making transfers between accounts
-- chosen by its own pseudo-random sequence, each transfer one atomically
-- block that moves money only when the source can pay (so the total is
-- always the same), plus a fee computed outside the transaction.
module Main (main) where

import Control.Concurrent
import Control.Concurrent.STM
import Control.Monad
import Data.List (foldl')
import System.Environment (getArgs)

type Account = TVar Int

lcg :: Int -> Int
lcg s = (s * 1103515245 + 12345) `mod` 2147483648

fee :: Int -> Int
fee amt = foldl' (\a k -> (a * 31 + k * amt) `mod` 97) 0 [1 .. 300]

transfer :: Account -> Account -> Int -> STM Bool
transfer from to amt = do
  b <- readTVar from
  if b < amt
    then return False
    else do
      writeTVar from (b - amt)
      modifyTVar' to (+ amt)
      return True

teller :: [Account] -> Int -> Int -> IO Int
teller accts seed n = go seed n 0
  where
    k = length accts
    go _ 0 done = return done
    go s i done = do
      let s1 = lcg s
          s2 = lcg s1
          a = accts !! (s1 `mod` k)
          b = accts !! (s2 `mod` k)
          amt = 1 + s2 `mod` 50 + fee (s1 `mod` 1000) `mod` 3
      ok <- atomically (transfer a b amt)
      go s2 (i - 1) (if ok then done + 1 else done)

main :: IO ()
main = do
  args <- getArgs
  let n = case args of
        (a : _) -> read a
        [] -> 20000
  accts <- replicateM 64 (newTVarIO 1000)
  dones <- forM [1 .. 8 :: Int] $ \w -> do
    d <- newEmptyMVar
    _ <- forkIO (teller accts (w * 7919) n >>= putMVar d)
    return d
  moved <- mapM takeMVar dones
  total <- atomically (foldM (\s a -> (+ s) <$> readTVar a) 0 accts)
  print (total, sum moved > 0)
