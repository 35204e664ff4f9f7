print("motionlog")
