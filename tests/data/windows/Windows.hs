-- Three marked steps, each between two `step` marks (six marks: `--between
-- step` gives three windows), with work outside the windows between them.
-- Each chunk of work holds a list, collects (a heap census is taken at a
-- major collection once its interval has passed) and sleeps a little, so
-- that censuses, collections and allocation fall inside and outside.
import Control.Concurrent (threadDelay)
import Control.Exception (evaluate)
import Control.Monad (forM)
import Data.List (foldl')
import Debug.Trace (traceMarkerIO)
import System.Mem (performMajorGC)

chunk :: Int -> IO Int
chunk n = do
  let xs = [1 .. n * 2000] :: [Int]
  s <- evaluate (foldl' (+) 0 (map (* 3) xs))
  performMajorGC
  l <- evaluate (length (filter even xs))
  threadDelay 12000
  return (s + l)

work :: Int -> IO Int
work n = sum <$> forM [1 .. n] (\i -> chunk (50 + i))

step :: Int -> IO Int
step k = do
  traceMarkerIO "step"
  r <- work (4 + 2 * k)
  traceMarkerIO "step"
  _ <- work 3           -- outside every window
  return r

main :: IO ()
main = do
  rs <- mapM step [1, 2, 3]
  print (sum rs)
