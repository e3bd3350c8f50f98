-- The text `ghc-events show FILE` prints, through the ghc-events library
-- (Debian 12's libghc-ghc-events-dev, 0.17): the event types, then every
-- event in time order (a stable sort: ties keep the file's order). That
-- version's reader drops block markers (its text has no "event block"
-- lines) and prints a stack overflow without its size: see
-- ghc_events_017.py, which puts `evprof dump` in that form. Fails with
-- ghc-events' message where it cannot read the log.
import GHC.RTS.Events
import Data.List (sortOn)
import System.Environment (getArgs)
import System.Exit (exitFailure)
import System.IO

main :: IO ()
main = do
  [path] <- getArgs
  r <- readEventLogFromFile path
  case r of
    Left err -> hPutStrLn stderr ("ghc-events: " ++ err) >> exitFailure
    Right (EventLog (Header ets) (Data es)) -> do
      let imap = buildEventTypeMap ets
      putStrLn "Event Types:"
      mapM_ (putStrLn . ppEventType) ets
      putStrLn ""
      putStrLn "Events:"
      mapM_ (putStrLn . ppEvent imap) (sortOn evTime es)
      putStrLn ""
