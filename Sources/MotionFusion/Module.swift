// MotionFusion
