-- Reads an eventlog with ghc-events (the Haskell library GHC's own tools
-- use) and prints its counts of events, capabilities, samples and threads, or fails with
-- ghc-events' message: the reader tests/cli/runs.sh runs on `evprof merge`.
import GHC.RTS.Events
import System.Environment (getArgs)
import System.Exit (exitFailure)
import qualified Data.List as L

main :: IO ()
main = do
  [path] <- getArgs
  r <- readEventLogFromFile path
  case r of
    Left err -> putStrLn ("ghc-events: " ++ err) >> exitFailure
    Right (EventLog _ (Data evs)) -> do
      let caps = L.nub [c | Event { evCap = Just c } <- evs]
          threads = L.nub [t | Event { evSpec = CreateThread t } <- evs]
          samples = length [() | Event { evSpec = ProfSampleCostCentre {} } <- evs]
      putStrLn ("events " ++ show (length evs))
      putStrLn ("capabilities " ++ show (length caps))
      putStrLn ("samples " ++ show samples)
      putStrLn ("threads " ++ show (length threads))
