// MotionApp
