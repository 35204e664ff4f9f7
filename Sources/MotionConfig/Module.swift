// MotionConfig
