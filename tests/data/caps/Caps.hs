-- A small busy program for the initial_capabilities runs (tests/data/caps).
-- With the argument "grow" it calls setNumCapabilities 2 first, so a run
-- started with -N1 ends with two capabilities.
import Control.Concurrent (setNumCapabilities, forkIO, newEmptyMVar, putMVar, takeMVar)
import Control.Monad (forM, forM_, when)
import System.Environment (getArgs)

collatz :: Int -> Int
collatz n = go n 0
  where go 1 k = k
        go m k = go (if even m then m `div` 2 else 3 * m + 1) (k + 1)

longest :: Int -> Int -> Int
longest lo hi = maximum [collatz i | i <- [lo .. hi]]

main :: IO ()
main = do
  args <- getArgs
  when ("grow" `elem` args) $ setNumCapabilities 2
  vs <- forM [0 .. 1 :: Int] $ \k -> do
    v <- newEmptyMVar
    _ <- forkIO (putMVar v $! longest (1 + k * 60000) ((k + 1) * 60000))
    return v
  forM_ vs $ \v -> takeMVar v >>= print
