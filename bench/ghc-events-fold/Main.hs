-- ghc-events-fold: a yardstick of the benchmark (docs/BENCH.md).
--
--     ghc-events-fold FILE
--
-- What a Haskell tool built on the ghc-events library does with a time
-- profile: the library's incremental decoder over a lazily read file, and
-- a strict fold of every PROF_SAMPLE_COST_CENTRE stack into a Map from
-- stack to count. Prints samples and distinct stacks.
{-# LANGUAGE BangPatterns #-}
module Main (main) where

import qualified Data.ByteString.Lazy as BL
import Data.List (foldl')
import qualified Data.Map.Strict as M
import qualified Data.Vector.Unboxed as V
import Data.Word (Word32)
import GHC.RTS.Events (Event (..), EventInfo (..))
import GHC.RTS.Events.Incremental (readEvents, readHeader)
import System.Environment (getArgs)
import System.Exit (exitFailure)
import System.IO (hPutStrLn, stderr)

data Acc = Acc !Int !(M.Map (V.Vector Word32) Int)

step :: Acc -> Event -> Acc
step acc@(Acc n m) ev = case evSpec ev of
  ProfSampleCostCentre {profCcsStack = s} -> Acc (n + 1) (M.insertWith (+) s 1 m)
  _ -> acc

main :: IO ()
main = do
  args <- getArgs
  path <- case args of
    [p] -> return p
    _ -> hPutStrLn stderr "usage: ghc-events-fold FILE" >> exitFailure
  bytes <- BL.readFile path
  case readHeader bytes of
    Left err -> hPutStrLn stderr (path ++ ": " ++ err) >> exitFailure
    Right (header, rest) -> do
      let (events, err) = readEvents header rest
          Acc n m = foldl' step (Acc 0 M.empty) events
      putStrLn ("samples " ++ show n ++ " distinct_stacks " ++ show (M.size m))
      case err of
        Just e -> hPutStrLn stderr (path ++ ": " ++ e) >> exitFailure
        Nothing -> return ()
