-- A threaded program for the page's timeline (issue 30): run with -N2 it
-- has phases marked with traceMarkerIO, labelled worker threads that run,
-- block on MVars and finish, sparks (par), and a phase that allocates a
-- lot (many collections), so every lane of the timeline has something.
import Control.Concurrent
import Control.Exception (evaluate)
import Control.Monad (forM, forM_, replicateM_)
import Data.List (foldl')
import qualified Data.Map.Strict as M
import Debug.Trace (traceMarkerIO)
import GHC.Conc (labelThread, par, pseq)

-- work for the threads: a fold over a list
crunch :: Int -> Int -> Int
crunch seed n = foldl' (\a i -> (a * 31 + i * seed) `mod` 1000003) seed [1 .. n]

-- a parallel naive recursion: the upper levels spark their left halves
pfib :: Int -> Int -> Int
pfib d n
  | n < 2 = n
  | d <= 0 = sfib n
  | otherwise = let a = pfib (d - 1) (n - 1); b = pfib (d - 1) (n - 2) in a `par` (b `pseq` a + b)

sfib :: Int -> Int
sfib n = if n < 2 then n else sfib (n - 1) + sfib (n - 2)

-- a map built and rebuilt: allocation and collections
churn :: Int -> Int
churn n = M.size (foldl' (\m i -> M.insert (i * 7919 `mod` n) i m) M.empty [1 .. 4 * n])

main :: IO ()
main = do
  traceMarkerIO "workers"
  -- four labelled workers handing results over one MVar in turn
  box <- newEmptyMVar
  dones <- forM [1 .. 4 :: Int] $ \k -> do
    done <- newEmptyMVar
    t <- forkIO $ do
      forM_ [1 .. 6 :: Int] $ \j -> do
        v <- evaluate (crunch (k * 10 + j) 1500000)
        putMVar box v
      putMVar done ()
    labelThread t ("worker " ++ show k)
    return done
  total <- foldl' (+) 0 <$> forM [1 .. 24 :: Int] (const (takeMVar box))
  mapM_ takeMVar dones
  traceMarkerIO "sparks"
  p <- evaluate (pfib 8 30)
  traceMarkerIO "churn"
  c <- evaluate (churn 60000)
  -- short-lived threads
  replicateM_ 50 $ do
    m <- newEmptyMVar
    _ <- forkIO (evaluate (crunch 3 2000) >>= putMVar m)
    takeMVar m
  print (total, p, c)
