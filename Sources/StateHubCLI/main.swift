print("statehub")
