-- A profiled program that runs until it is killed (issue 27, point 4):
-- with +RTS -p -l it is stopped by SIGKILL before it exits, so its
-- eventlog ends wherever the RTS had last written.
module Main (main) where

import Control.Monad (forM_)
import Data.List (foldl')

spin :: Int -> Int
spin k = foldl' (\a x -> (a * 31 + x) `mod` 1000003) k [1 .. 200000]

main :: IO ()
main = forM_ [1 ..] $ \i -> if spin i == -1 then print i else return ()
