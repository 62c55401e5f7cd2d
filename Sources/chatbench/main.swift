print("chatbench")
