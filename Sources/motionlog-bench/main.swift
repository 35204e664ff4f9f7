MotionLogBench.main()
