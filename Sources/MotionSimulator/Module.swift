// MotionSimulator
