-- Two threads on two capabilities build maps at once, so both capabilities
-- allocate and the parallel collector has live data to share out.
import Control.Concurrent
import Control.Exception (evaluate)
import qualified Data.Map.Strict as M
import Data.List (foldl')

build :: Int -> Int -> M.Map Int Int
build seed k = foldl' (\m i -> M.insertWith (+) ((i * seed) `mod` 20011) i m) M.empty [1 .. k]

main :: IO ()
main = do
  done <- newEmptyMVar
  _ <- forkOn 1 $ do
    m <- evaluate (build 31 150000)
    putMVar done (M.size m)
  m0 <- evaluate (build 17 150000)
  n1 <- takeMVar done
  print (M.size m0, n1)
