import MotionApp
MotionLogMain.main()
