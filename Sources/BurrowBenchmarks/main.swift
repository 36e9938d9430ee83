print("burrow")
