-- Labelled threads that block in the ways the scheduler names: an STM
-- retry, an MVar, threadDelay, a black hole; and a worker that computes.
import Control.Concurrent
import Control.Concurrent.STM
import Control.Exception (evaluate)
import Control.Monad
import GHC.Conc (labelThread)

main :: IO ()
main = do
  me <- myThreadId
  labelThread me "main"
  tv <- newTVarIO (0 :: Int)
  mv <- newEmptyMVar
  done <- newEmptyMVar
  w <- forkIO $ do
    atomically $ readTVar tv >>= \v -> when (v < 3) retry
    putMVar done ()
  labelThread w "stm-waiter"
  p <- forkIO $ forM_ [1 .. 3 :: Int] $ \_ -> do
    threadDelay 5000
    atomically (modifyTVar' tv (+ 1))
  labelThread p "producer"
  c <- forkIO $ do
    x <- takeMVar mv
    print (x :: Int)
    putMVar done ()
  labelThread c "mvar-taker"
  let big = sum [1 .. 20000000 :: Int]
  b <- forkOn 1 $ threadDelay 2000 >> evaluate big >>= \s -> s `seq` putMVar done ()
  labelThread b "blackhole-waiter"
  k <- forkOn 0 $ evaluate big >>= putMVar mv
  labelThread k "worker"
  replicateM_ 3 (takeMVar done)
