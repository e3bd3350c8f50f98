-- Sparks of every fate: a parallel nfib (converted), sparks of thunks the
-- main thread then evaluates itself (fizzled), sparks of values already
-- evaluated (dud), and a burst of sparks nobody needs that overflows the
-- spark pool and that the collector drops (GC'd).
import GHC.Conc (par, pseq)
import Control.Exception (evaluate)
import Control.Monad (forM_)
import System.Mem (performGC)

pfib :: Int -> Int
pfib n
  | n < 20 = sfib n
  | otherwise = a `par` (b `pseq` (a + b + 1))
  where a = pfib (n - 1)
        b = pfib (n - 2)

sfib :: Int -> Int
sfib n = if n < 2 then 1 else sfib (n - 1) + sfib (n - 2)
{-# NOINLINE sfib #-}

-- a spark of a thunk that nothing else holds
unwanted :: Int -> IO ()
unwanted i = let t = sfib (i `mod` 20) + i in t `par` return ()
{-# NOINLINE unwanted #-}

main :: IO ()
main = do
  print (pfib 32)
  let ts = map (\i -> sfib (i `mod` 12) + i) [1 .. 1000 :: Int]
  forM_ ts $ \t -> t `par` return ()
  _ <- evaluate (sum ts)                  -- their sparks now point to values
  performGC                               -- fizzled
  let xs = [1 .. 2000] :: [Int]
  _ <- evaluate (sum xs)
  forM_ xs $ \x -> x `par` return ()      -- dud: already values
  forM_ [1 .. 9000 :: Int] unwanted       -- more than the pool holds
  performGC
  print (length xs)
