-- Rounds: worker threads (forkIO, MVars, a Chan) each in a hot foldl' loop, a
-- traceMarker per round; the loop's stack alternates between two cost centres
-- on every tick, where GHC's two reads of the stack differ most (docs/PROF.md).
module Main (main) where
import Control.Concurrent
import Control.Monad
import Debug.Trace (traceMarkerIO)
import Data.IORef
import Data.List (foldl')

work :: Int -> Int
work k = foldl' (\a x -> (a * 31 + x * x) `mod` 1000003) k [1 .. 1500000]

main :: IO ()
main = do
  ch <- newChan
  total <- newIORef (0 :: Int)
  forM_ [1 .. 6 :: Int] $ \r -> do
    traceMarkerIO ("round " ++ show r)
    traceMarkerIO "busy"
    dones <- forM [1 .. 8 :: Int] $ \w -> do
      d <- newEmptyMVar
      _ <- forkIO $ do
        let v = work (w * r)
        v `seq` writeChan ch v
        putMVar d ()
      return d
    mapM_ takeMVar dones
    vs <- replicateM 8 (readChan ch)
    modifyIORef' total (+ sum vs)
    traceMarkerIO "busy"
    threadDelay 20000
  traceMarkerIO "end"
  readIORef total >>= print
